//go:build !dotnet

package main

import (
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The generators of the CLI's own pkg/v3 (see ../codegen.ts).
var generators = map[string]func(*schema.Package) (map[string][]byte, error){
	"python": func(pkg *schema.Package) (map[string][]byte, error) {
		return python.GeneratePackage(tool, pkg, nil, selfContained{})
	},
	"go": func(pkg *schema.Package) (map[string][]byte, error) { return gogen.GeneratePackage(tool, pkg, nil) },
	"nodejs": func(pkg *schema.Package) (map[string][]byte, error) {
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, selfContained{})
	},
}
