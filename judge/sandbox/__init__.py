"""Everything that touches untrusted code: bubblewrap, the spawner, the runner and the referee's
end of its protocol (client, pool, channel, messages), shared buffers and their guard bands."""
