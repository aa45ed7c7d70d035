"""The async client: the source unasync generates ``interlock/_sync`` from."""
