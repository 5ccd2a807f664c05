"""Fixture program: two explicit providers, each with the settings of one organization and its cluster (read from this
program's config), and the same resources under each; no setting given to any resource."""
import pulumi
import pulumi_platform as platform

config = pulumi.Config()


def provider(name):
    return platform.Provider(
        name,
        management_url=config.require(f"{name}ManagementUrl"),
        client_id=config.require(f"{name}ClientId"),
        client_secret=config.require_secret(f"{name}ClientSecret"),
        oauth_url=config.require(f"{name}OauthUrl"),
        base_url=config.require(f"{name}BaseUrl"),
    )


first = pulumi.ResourceOptions(provider=provider("first"))
platform.ClusterScale("cluster", broker_count=5, partition_count=3, replication_factor=3, opts=first)
platform.OrganizationMember("grace", email="grace@example.com", roles=["admin", "developer"], opts=first)

second = pulumi.ResourceOptions(provider=provider("second"))
platform.ClusterScale("other-cluster", broker_count=4, partition_count=3, replication_factor=3, opts=second)
platform.OrganizationMember("ada", email="ada@example.com", roles=["admin"], opts=second)
