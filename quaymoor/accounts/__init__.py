"""Accounts: passkey sign-in (WebAuthn), names, sessions (issue 27)."""
