//go:build dotnet

package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"

	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The .NET generator, which pkg/v3 holds up to v3.228.0 (it moved to the .NET language host's module, not served
// here; see ../codegen.ts).
var generators = map[string]func(*schema.Package) (map[string][]byte, error){
	"dotnet": func(pkg *schema.Package) (map[string][]byte, error) {
		// The generator downloads the package's logo (Pulumi's generic one when the schema names none) for the NuGet
		// package's icon; this machine reaches no such host, so the icon is drawn here instead: a plain square.
		http.DefaultTransport = drawnLogo{}
		return dotnet.GeneratePackage(tool, pkg, nil, nil)
	},
}

type drawnLogo struct{}

func (drawnLogo) RoundTrip(request *http.Request) (*http.Response, error) {
	icon := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for x := 0; x < 64; x++ {
		for y := 0; y < 64; y++ {
			icon.Set(x, y, color.RGBA{R: 0x2b, G: 0x4c, B: 0x7e, A: 0xff})
		}
	}
	var body bytes.Buffer
	if err := png.Encode(&body, icon); err != nil {
		return nil, err
	}
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": []string{"image/png"}}, Body: io.NopCloser(&body),
		ContentLength: int64(body.Len()), Request: request,
	}, nil
}
