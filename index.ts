// Package root: the Pulumi resources and the SDK under them.
export {};
