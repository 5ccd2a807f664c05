// Loaded by mocha before any suite (.mocharc.json): the Go programs the tests start (the Pulumi CLI and the plugins it
// starts, etcd, kube-apiserver, kube-controller-manager, helm) inherit GOGC=400 unless it is set. Most of them live a
// second or less and do most of their allocating while they start, where Go's default (a collection each time the heap
// doubles from 4 MB) costs more than their work: on 2 cores, `pulumi stack export` takes 0.2 CPU-s instead of 0.35 for
// 5 MB more, and a Kubernetes control plane starts with about 15% less CPU.
process.env.GOGC ??= "400";
