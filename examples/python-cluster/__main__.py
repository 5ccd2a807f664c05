"""The layout of a cluster and a person of the organization, declared in Python.

The provider plugin `platform` gets no stack config (a plugin's provider is configured through its own inputs): the
settings come from this program's config, and the client secret stays a secret from config to state.
"""
import pulumi
import pulumi_platform as platform

config = pulumi.Config()

layout = platform.ClusterScale(
    "cluster",
    management_url=config.require("managementUrl"),
    gateway_url=config.get("gatewayUrl"),
    broker_count=config.get_int("brokerCount") or 5,
    partition_count=config.get_int("partitionCount") or 8,
    replication_factor=config.get_int("replicationFactor") or 3,
    timeout_seconds=config.get_int("timeoutSeconds") or 600,
)

member = platform.OrganizationMember(
    "grace",
    email=config.get("memberEmail") or "grace@example.com",
    roles=config.get_object("memberRoles") or ["admin", "operationsengineer"],
    credentials=platform.AdminCredentialsArgs(
        client_id=config.require("clientId"),
        client_secret=config.require_secret("clientSecret"),
        oauth_url=config.require("oauthUrl"),
        base_url=config.require("baseUrl"),
    ),
)

pulumi.export("changeId", layout.change_id)
pulumi.export("partitionCount", layout.partition_count)
pulumi.export("replicationFactor", layout.replication_factor)
pulumi.export("brokers", layout.topology.apply(lambda topology: [broker.id for broker in topology]))
pulumi.export("memberRoles", member.roles)
