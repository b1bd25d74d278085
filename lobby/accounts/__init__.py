"""Accounts: what makes an account someone's (a verified e-mail address) and what it may do."""
