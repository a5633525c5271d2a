"""What crosses process boundaries: card names, options, commands, events, codecs."""
