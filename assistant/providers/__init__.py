"""Provider records: sourced facts and prices, filters from contract §3, and their text for the index."""
