"""The `rubble replay` command and the `--record` options of `simulate`, `play` and `evaluate`."""
from __future__ import annotations

import sys
import time
from pathlib import Path

from training.folders import output
from training.lookup import CommandError

from . import arguments as arg


def add_record_options(p, series: bool = True) -> None:
    """--record DIR (and, for series of games, --record-every N and --record-losses)."""
    p.add_argument("--record", type=Path, metavar="DIR", help="write replays (.rubble.json.gz) into DIR; "
                   "an existing replay is never overwritten")
    if series:
        p.add_argument("--record-every", type=arg.every, default=1, metavar="N", help="record game 0, N, 2N... of the series")
        p.add_argument("--record-losses", action="store_true",
                       help="record only the games side 0 lost (with --record-every: of those games)")


def recorder_from(args, agents, first_seed: int = 0, numbered: bool = False):
    """The Recorder the options ask for, or None without --record."""
    if getattr(args, "record", None) is None:
        return None
    from training.replay.recorder import Recorder

    if args.record.exists() and not args.record.is_dir():
        raise CommandError(f"--record {args.record}: a file is there; expected a folder")
    output.writable_folder(args.record, "replays")     # before any game, not after the first one
    return Recorder(args.record, tuple(agents), getattr(args, "record_every", 1), first_seed,
                    0 if getattr(args, "record_losses", False) else None, numbered=numbered)


def recording(run):
    """Run `run()`, turning a replay that would overwrite a file into one CommandError line."""
    from training.replay.recorder import existing_error

    try:
        return run()
    except FileExistsError as exc:
        raise CommandError(existing_error(exc)) from None



def add_replay(sub) -> None:
    p = sub.add_parser("replay", help="check a replay file (--verify), or turn it into a web page (--html) or a GIF")
    p.add_argument("file", type=Path, help="a .rubble.json or .rubble.json.gz replay")
    p.add_argument("--verify", action="store_true", help="play the actions again from the seed; every event, key by "
                   "key, and the outcome must come out identical (a file of an older format version: but for the "
                   "event keys it did not record)")
    p.add_argument("--html", type=Path, metavar="OUT", help="write a self-contained viewer page (no network needed)")
    p.add_argument("--gif", type=Path, metavar="OUT", help="write an animated GIF of the board (umpire's view "
                                                           "unless --side)")
    p.add_argument("--mp4", type=Path, metavar="OUT", help="write an MP4 video of the board, two steps a second "
                                                           "(umpire's view unless --side)")
    p.add_argument("--side", help="with --gif/--mp4: the side whose view is shown (hidden information hidden)")
    p.add_argument("--scale", type=arg.scale, default=None, help="with --gif/--mp4: picture scale (default 1)")
    p.add_argument("--serve", action="store_true", help="serve the viewer page on localhost and open it in a browser "
                                                        "(Ctrl-C stops)")
    p.add_argument("--port", type=arg.port, default=0, help="with --serve: the port (default: any free one)")
    p.set_defaults(run=cmd_replay)


def cmd_replay(args) -> int:
    from training.replay import files as replay

    try:
        if not (args.verify or args.html or args.gif or args.mp4 or args.serve):
            print(replay.summary(replay.load(args.file)))
            return 0
        if args.verify:
            start = time.perf_counter()
            data, _ = replay.verify(args.file)
            seconds = time.perf_counter() - start
            print(f"verified: {replay.summary(data)}; {seconds:.2f} s")
        if args.html:
            from training.replay.viewer import write_html

            print(f"written: {write_html(args.file, args.html)}")
        for out in (args.gif, args.mp4):
            if out:
                from training.replay.viewer import write_video

                print(f"written: {write_video(args.file, out, args.side, args.scale)}")
        if args.serve:
            from training.replay.serve import serve

            serve(args.file, args.port)
    except replay.ReplayError as exc:
        print(f"rubble replay: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, replay.ReplayFileError) else 1
    except FileExistsError as exc:
        raise CommandError(f"{exc.filename} exists: not overwritten") from None
    return 0
