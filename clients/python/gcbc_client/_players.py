"""What the sync and async clients share about players: their answers' decoders."""

from __future__ import annotations

import msgspec

from gcbc_contract.players import MyTables, PlayedGames, PlayerProfile, Registered, TokenIssued

registered_decoder = msgspec.json.Decoder(Registered)
profile_decoder = msgspec.json.Decoder(PlayerProfile)
token_decoder = msgspec.json.Decoder(TokenIssued)
tables_decoder = msgspec.json.Decoder(MyTables)
games_decoder = msgspec.json.Decoder(PlayedGames)
encode = msgspec.json.Encoder().encode
