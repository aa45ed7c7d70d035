"""The sync resources, generated from ``resources/_async`` by unasync: do not edit."""
