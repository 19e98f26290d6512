"""The test suite; a package, so that pytest names tests/training/ `tests.training` and never lets it shadow `training`."""
