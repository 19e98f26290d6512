"""`rubble replay FILE --serve`: the viewer page on a local web server, opened in the browser if there is one.

The page is the same self-contained one `--html` writes (built into a temporary folder); the server answers only
on 127.0.0.1 and only with that page, until Ctrl-C.
"""
from __future__ import annotations

import tempfile
import threading
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .viewer import write_html


def page_server(page: bytes, port: int = 0) -> ThreadingHTTPServer:
    """A server on 127.0.0.1:`port` (0: any free port) answering every GET with `page`."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:   # noqa: N802  (http.server's name)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args) -> None:   # quiet: the terminal shows the address, not every request
            pass

    return ThreadingHTTPServer(("127.0.0.1", port), Page)


def serve(source: Path, port: int = 0, open_browser: bool = True) -> None:
    with tempfile.TemporaryDirectory() as folder:
        page = write_html(source, Path(folder) / "replay.html").read_bytes()
    server = page_server(page, port)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    print(f"serving {source} at {url} (Ctrl-C stops)", flush=True)
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped")
    finally:
        server.server_close()
