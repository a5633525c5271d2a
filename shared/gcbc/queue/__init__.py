"""Quick play: the queue folded from its log, and who is matched with whom."""
