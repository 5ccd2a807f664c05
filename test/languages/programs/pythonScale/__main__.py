"""Fixture program: the cluster layout of config brokerCount, through the provider plugin `platform`."""
import pulumi
import pulumi_platform as platform

config = pulumi.Config()

layout = platform.ClusterScale(
    "cluster",
    management_url=config.require("managementUrl"),
    broker_count=config.require_int("brokerCount"),
    partition_count=3,
    replication_factor=3,
    timeout_seconds=600,
)

pulumi.export("brokers", layout.topology.apply(lambda topology: [broker.id for broker in topology]))
