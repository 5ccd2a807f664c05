import pulumi
import pulumi_platform as platform

layout = platform.ClusterScale("cluster", management_url=pulumi.Config().require("managementUrl"), broker_count=3)
pulumi.export("changeId", layout.change_id)
