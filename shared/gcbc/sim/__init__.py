"""The simulator and the engine bench: ``python -m gcbc simulate|bench``."""
