"""Fixture program: no setting given to any resource. The default provider takes them from the `platform:` stack config
(the first organization and cluster); the explicit provider `other` from its own inputs (a second organization and
cluster), which the program reads from its own config."""
import pulumi
import pulumi_platform as platform

config = pulumi.Config()

platform.ClusterScale("cluster", broker_count=5, partition_count=3, replication_factor=3)
platform.OrganizationMember("grace", email="grace@example.com", roles=["admin", "developer"])

other = platform.Provider(
    "other",
    management_url=config.require("otherManagementUrl"),
    client_id=config.require("otherClientId"),
    client_secret=config.require_secret("otherClientSecret"),
    oauth_url=config.require("otherOauthUrl"),
    base_url=config.require("otherBaseUrl"),
)
under_other = pulumi.ResourceOptions(provider=other)
platform.ClusterScale("other-cluster", broker_count=4, partition_count=3, replication_factor=3, opts=under_other)
platform.OrganizationMember("ada", email="ada@example.com", roles=["admin"], opts=under_other)
