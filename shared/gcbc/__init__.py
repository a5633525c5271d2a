"""Good Cop Bad Cop: the project's shared code (pure rules engine, ports and adapters, bots,
simulator); the contract is the gcbc_contract package (clients/contract)."""
