"""The async shell: supervisor, table actors, seat workers, the gateway and front door."""
