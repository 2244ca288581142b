"""The wire protocol: messages between browsers and the server (see docs/protocol.md)."""
