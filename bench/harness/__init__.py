"""What the benchmarks of a running site stand on: its configurations, servers, clients, meters."""
