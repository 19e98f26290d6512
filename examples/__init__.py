"""Short, runnable examples of Rubble with RL libraries written elsewhere; tests/test_examples.py runs each briefly."""
