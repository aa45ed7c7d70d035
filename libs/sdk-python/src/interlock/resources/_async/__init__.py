"""The async resources: the source unasync generates ``resources/_sync`` from."""
