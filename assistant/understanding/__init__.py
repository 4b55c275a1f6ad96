"""Question understanding: scope, intent, filter, form and language, before retrieval and composition."""
