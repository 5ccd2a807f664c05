// The engine's provider protocol (pulumirpc.ResourceProvider over gRPC) for the plugin. Served here rather than by
// @pulumi/pulumi/provider's server, which answers CheckConfig and DiffConfig as unimplemented and drops what Configure
// is given (pulumi/pulumi#10915), so a plugin written with it cannot take stack config or an explicit provider's
// settings. This is the same thin translation (protobuf values to plain ones and back; a partial failure's id and
// properties as the ErrorResourceInitFailed detail), plus those three calls. Calls a provider does not serve are
// answered UNIMPLEMENTED by gRPC itself.
/* eslint-disable @typescript-eslint/no-require-imports -- @pulumi/pulumi's generated protocol modules, and the gRPC library they are made with */
import type * as grpcTypes from "@grpc/grpc-js";
import * as path from "path";
import type * as proto from "@pulumi/pulumi/proto/provider_pb";
import type * as provider from "@pulumi/pulumi/provider";

const fromPulumi = (id: string) => require(require.resolve(id, { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] }));
const grpc = fromPulumi("@grpc/grpc-js") as typeof grpcTypes;
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const plugproto = require("@pulumi/pulumi/proto/plugin_pb");
const statusproto = require("@pulumi/pulumi/proto/status_pb");
const { Struct } = fromPulumi("google-protobuf/google/protobuf/struct_pb");
const { Empty } = fromPulumi("google-protobuf/google/protobuf/empty_pb");
const { Any } = fromPulumi("google-protobuf/google/protobuf/any_pb");

type Props = Record<string, unknown>;

/** What the plugin serves: each call with plain values (the result types of @pulumi/pulumi/provider). */
export interface ServedProvider {
    version: string;
    schema: string;
    checkConfig(olds: Props, news: Props): Promise<provider.CheckResult>;
    diffConfig(olds: Props, news: Props): Promise<provider.DiffResult>;
    configure(inputs: Props): Promise<void>;
    check(urn: string, olds: Props, news: Props): Promise<provider.CheckResult>;
    diff(id: string, urn: string, olds: Props, news: Props): Promise<provider.DiffResult>;
    /** With `preview` (a preview's Create, when Configure said supportsPreview): nothing is created. */
    create(urn: string, inputs: Props, preview: boolean): Promise<provider.CreateResult>;
    read(id: string, urn: string, props: Props): Promise<provider.ReadResult>;
    update(id: string, urn: string, olds: Props, news: Props, preview: boolean): Promise<provider.UpdateResult>;
    delete(id: string, urn: string, props: Props): Promise<void>;
    invoke(token: string, args: Props): Promise<provider.InvokeResult>;
    cancel(): Promise<void>;
}

type Handler = grpcTypes.handleUnaryCall<unknown, unknown>;

const plain = (struct: { toJavaScript(): unknown } | undefined): Props => (struct?.toJavaScript() as Props | undefined) ?? {};

/** Serves `provider` on a port of loopback; resolves to the port (the engine reads it from the plugin's first line). */
export async function serveProvider(provider: ServedProvider): Promise<number> {
    const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
    server.addService(provrpc.ResourceProviderService, implementation(provider));
    return new Promise((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
    );
}

function implementation(provider: ServedProvider): Record<string, Handler> {
    /** A call answered with what `handle` returns, or failed with what it throws (a partial failure with its detail). */
    const unary =
        <Request>(handle: (request: Request) => Promise<unknown>): Handler =>
        (call, callback) => {
            handle(call.request as Request).then(
                (response) => callback(null, response),
                (error: unknown) => {
                    const status = failure(error);
                    callback(status, null, status.metadata);
                },
            );
        };
    return {
        getPluginInfo: unary(async () => new plugproto.PluginInfo().setVersion(provider.version)),
        getSchema: unary(async () => new provproto.GetSchemaResponse().setSchema(provider.schema)),
        checkConfig: unary(async (request: proto.CheckRequest) =>
            checkResponse(await provider.checkConfig(plain(request.getOlds()), plain(request.getNews()))),
        ),
        diffConfig: unary(async (request: proto.DiffRequest) => diffResponse(await provider.diffConfig(plain(request.getOlds()), plain(request.getNews())))),
        configure: unary(async (request: proto.ConfigureRequest) => {
            await provider.configure(plain(request.getArgs()));
            return new provproto.ConfigureResponse().setAcceptsecrets(true).setAcceptresources(true).setSupportspreview(true);
        }),
        check: unary(async (request: proto.CheckRequest) =>
            checkResponse(await provider.check(request.getUrn(), plain(request.getOlds()), plain(request.getNews()))),
        ),
        diff: unary(async (request: proto.DiffRequest) =>
            diffResponse(await provider.diff(request.getId(), request.getUrn(), plain(request.getOlds()), plain(request.getNews()))),
        ),
        create: unary(async (request: proto.CreateRequest) => {
            const result = await provider.create(request.getUrn(), plain(request.getProperties()), request.getPreview());
            return new provproto.CreateResponse().setId(result.id).setProperties(Struct.fromJavaScript(result.outs ?? {}));
        }),
        read: unary(async (request: proto.ReadRequest) => {
            const result = await provider.read(request.getId(), request.getUrn(), plain(request.getProperties()));
            const response = new provproto.ReadResponse().setId(result.id ?? "").setProperties(Struct.fromJavaScript(result.props ?? {}));
            return result.inputs === undefined ? response : response.setInputs(Struct.fromJavaScript(result.inputs));
        }),
        update: unary(async (request: proto.UpdateRequest) => {
            const result = await provider.update(request.getId(), request.getUrn(), plain(request.getOlds()), plain(request.getNews()), request.getPreview());
            return new provproto.UpdateResponse().setProperties(Struct.fromJavaScript(result.outs ?? {}));
        }),
        delete: unary(async (request: proto.DeleteRequest) => {
            await provider.delete(request.getId(), request.getUrn(), plain(request.getProperties()));
            return new Empty();
        }),
        invoke: unary(async (request: proto.InvokeRequest) => {
            const result = await provider.invoke(request.getTok(), plain(request.getArgs()));
            return new provproto.InvokeResponse().setReturn(Struct.fromJavaScript(result.outputs ?? {}));
        }),
        cancel: unary(async () => {
            await provider.cancel();
            return new Empty();
        }),
    };
}

function checkResponse(result: provider.CheckResult): unknown {
    const response = new provproto.CheckResponse();
    if (result.inputs !== undefined) response.setInputs(Struct.fromJavaScript(result.inputs as Props));
    return response.setFailuresList(
        (result.failures ?? []).map((failure) => new provproto.CheckFailure().setProperty(failure.property).setReason(failure.reason)),
    );
}

function diffResponse(result: provider.DiffResult): unknown {
    const { DIFF_SOME, DIFF_NONE, DIFF_UNKNOWN } = provproto.DiffResponse.DiffChanges;
    return new provproto.DiffResponse()
        .setChanges(result.changes === true ? DIFF_SOME : result.changes === false ? DIFF_NONE : DIFF_UNKNOWN)
        .setReplacesList(result.replaces ?? [])
        .setDeletebeforereplace(result.deleteBeforeReplace === true);
}

/**
 * A failed call as gRPC carries it. A partial failure (the resource exists: an `id`, its `properties`, the `reasons`)
 * also carries them as the ErrorResourceInitFailed detail, so the engine keeps the resource in the state.
 */
function failure(error: unknown): { code: number; details: string; metadata: grpcTypes.Metadata } {
    const message = error instanceof Error ? error.message : String(error);
    const metadata = new grpc.Metadata();
    const partial = error as { id?: unknown; properties?: Props; reasons?: string[] };
    if (typeof partial?.id === "string" && partial.id !== "") {
        const detail = new provproto.ErrorResourceInitFailed()
            .setId(partial.id)
            .setProperties(Struct.fromJavaScript(partial.properties ?? {}))
            .setReasonsList(partial.reasons ?? [message]);
        const packed = new Any();
        packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
        const status = new statusproto.Status().setCode(grpc.status.UNKNOWN).setMessage(message);
        status.addDetails(packed);
        metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
    }
    return { code: grpc.status.UNKNOWN, details: message, metadata };
}
