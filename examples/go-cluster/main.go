// The layout of a cluster and a person of the organization, declared in Go.
//
// The endpoints and the admin client's credentials are the provider's settings, from stack config as for every Pulumi
// provider (`pulumi config set platform:managementUrl …`, `pulumi config set --secret platform:clientSecret …`); the
// client secret stays a secret from config to state.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"github.com/pulumi-platform/pulumi-platform/sdk/go/platform"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		orDefault := func(key string, fallback int) int {
			if value, err := cfg.TryInt(key); err == nil {
				return value
			}
			return fallback
		}
		layout, err := platform.NewClusterScale(ctx, "cluster", &platform.ClusterScaleArgs{
			BrokerCount:       pulumi.Int(orDefault("brokerCount", 5)),
			PartitionCount:    pulumi.Int(orDefault("partitionCount", 8)),
			ReplicationFactor: pulumi.Int(orDefault("replicationFactor", 3)),
			TimeoutSeconds:    pulumi.Int(600),
		})
		if err != nil {
			return err
		}
		email := cfg.Get("memberEmail")
		if email == "" {
			email = "grace@example.com"
		}
		member, err := platform.NewOrganizationMember(ctx, "grace", &platform.OrganizationMemberArgs{
			Email: pulumi.String(email),
			Roles: pulumi.StringArray{pulumi.String("admin"), pulumi.String("operationsengineer")},
		})
		if err != nil {
			return err
		}
		ctx.Export("changeId", layout.ChangeId)
		ctx.Export("partitionCount", layout.PartitionCount)
		ctx.Export("replicationFactor", layout.ReplicationFactor)
		ctx.Export("memberRoles", member.Roles)
		return nil
	})
}
