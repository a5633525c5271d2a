"""Good Cop Bad Cop: the project's shared code (contract, pure rules engine, bots, simulator)."""
