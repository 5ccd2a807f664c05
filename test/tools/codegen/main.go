// platform-codegen SCHEMA LANGUAGE OUT: writes the SDK of one language for a package schema, with the code
// generators of the Pulumi module it is built against: the ones `pulumi package gen-sdk` reaches through each
// language host, which the module proxy here does not serve (see ../codegen.ts). Which languages: generators.go
// (python, go, nodejs), or generators_dotnet.go in the build of an older module that still holds the .NET generator.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-platform"

func main() {
	if len(os.Args) != 4 {
		fail(fmt.Errorf("usage: platform-codegen SCHEMA LANGUAGE OUT"))
	}
	schemaFile, language, out := os.Args[1], os.Args[2], os.Args[3]
	text, err := os.ReadFile(schemaFile)
	if err != nil {
		fail(err)
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		fail(fmt.Errorf("%s: %w", schemaFile, err))
	}
	pkg, diags, err := schema.BindSpec(spec, selfContained{}, schema.ValidationOptions{})
	if err != nil {
		fail(err)
	}
	if diags.HasErrors() {
		fail(diags)
	}
	generate, ok := generators[language]
	if !ok {
		known := make([]string, 0, len(generators))
		for name := range generators {
			known = append(known, name)
		}
		sort.Strings(known)
		fail(fmt.Errorf("no code generator for %q in this build: %s", language, strings.Join(known, ", ")))
	}
	files, err := generate(pkg)
	if err != nil {
		fail(err)
	}
	for name, content := range files {
		path := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fail(err)
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			fail(err)
		}
	}
}

// selfContained loads no other package: the schema refers to none.
type selfContained struct{}

func (selfContained) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q, and this generator loads no other package", name)
}

func (l selfContained) LoadPackageV2(_ context.Context, descriptor *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(descriptor.Name, nil)
}

func (l selfContained) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %q, and this generator loads no other package", name)
}

func (l selfContained) LoadPackageReferenceV2(_ context.Context, descriptor *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(descriptor.Name, nil)
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "platform-codegen: %v\n", err)
	os.Exit(1)
}
