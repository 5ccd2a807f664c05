"""A cluster layout, a person of the organization and a hosted cluster with its API client, declared in Python.

The endpoints and the admin client's credentials are the provider's settings, from stack config as for every Pulumi
provider (a `platform.Provider` of its own would take them as inputs instead):

    pulumi config set platform:managementUrl http://zeebe-gateway:9600
    pulumi config set platform:clientId my-client
    pulumi config set --secret platform:clientSecret '...'
    pulumi config set platform:oauthUrl https://login.example.com/oauth/token
    pulumi config set platform:baseUrl https://api.example.com/admin/v1

The secrets (the admin client's secret, the API client's secret, the connector secret's value) stay secrets from
config to state.
"""
import pulumi
import pulumi_platform as platform

config = pulumi.Config()

layout = platform.ClusterScale(
    "cluster",
    broker_count=config.get_int("brokerCount") or 5,
    partition_count=config.get_int("partitionCount") or 8,
    # Left out: the resource keeps the one it intends (on create, the cluster's), as a force removal needs.
    replication_factor=config.get_int("replicationFactor"),
    force=config.get_bool("force"),
    timeout_seconds=config.get_int("timeoutSeconds") or 600,
)

member = platform.OrganizationMember(
    "grace",
    email=config.get("memberEmail") or "grace@example.com",
    roles=config.get_object("memberRoles") or ["admin", "operationsengineer"],
)

orders = platform.Cluster(
    "orders",
    name="orders",
    channel="Stable",
    region=config.get("region") or "Belgium, Europe (europe-west1)",
    plan_type="Basic",
    stage_label="prod",
)

# A Cluster's id is the cluster's id.
worker = platform.ClusterClient("order-worker", cluster_id=orders.id, client_name="order-worker", permissions=["Zeebe"])

platform.ConnectorSecret(
    "payments-api-key",
    cluster_id=orders.id,
    secret_name="PAYMENTS_API_KEY",
    value=config.require_secret("paymentsApiKey"),
)

platform.IpAllowlist(
    "ingress",
    cluster_id=orders.id,
    entries=[platform.IpAllowlistEntryArgs(ip=config.get("officeRange") or "203.0.113.0/24", description="office")],
)

parameters = platform.get_cluster_parameters_output()

pulumi.export("changeId", layout.change_id)
pulumi.export("partitionCount", layout.partition_count)
pulumi.export("replicationFactor", layout.replication_factor)
pulumi.export("brokers", layout.topology.apply(lambda topology: [broker.id for broker in topology]))
pulumi.export("memberRoles", member.roles)
pulumi.export("clusterStatus", orders.status)
pulumi.export("workerClientSecret", worker.client_secret)
pulumi.export("regions", parameters.regions.apply(lambda regions: [region.name for region in regions]))
