// zod schemas of the Kubernetes objects the brokers' StatefulSet client reads: only the fields it uses, everything else
// dropped. Names follow the API (apps/v1 StatefulSet, autoscaling/v1 Scale, v1 Pod and PersistentVolumeClaim,
// authorization.k8s.io/v1 SelfSubjectAccessReview).

import { z } from "zod";

const metadataSchema = z.object({
    name: z.string(),
    uid: z.string().optional(),
    creationTimestamp: z.string().optional(),
    resourceVersion: z.string().optional(),
    deletionTimestamp: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
});

const managedFieldsEntrySchema = z.object({
    manager: z.string().optional(),
    operation: z.string().optional(),
    fieldsV1: z.record(z.string(), z.unknown()).optional(),
});

export const statefulSetSchema = z.object({
    metadata: metadataSchema.extend({ managedFields: z.array(managedFieldsEntrySchema).optional() }),
    spec: z.object({
        replicas: z.number().int().optional(),
        podManagementPolicy: z.string().optional(),
        ordinals: z.object({ start: z.number().int().optional() }).optional(),
        serviceName: z.string().optional(),
        selector: z.object({ matchLabels: z.record(z.string(), z.string()).optional() }).optional(),
        volumeClaimTemplates: z
            .array(
                z.object({
                    metadata: z.object({ name: z.string() }),
                    spec: z
                        .object({
                            accessModes: z.array(z.string()).optional(),
                            storageClassName: z.string().optional(),
                            volumeMode: z.string().optional(),
                            resources: z.object({ requests: z.object({ storage: z.string().optional() }).optional() }).optional(),
                        })
                        .optional(),
                }),
            )
            .optional(),
        persistentVolumeClaimRetentionPolicy: z.object({ whenScaled: z.string().optional() }).optional(),
    }),
});

export const scaleSchema = z.object({
    metadata: metadataSchema,
    spec: z.object({ replicas: z.number().int().optional() }),
});

const containerStateSchema = z.object({
    running: z.unknown().optional(),
    waiting: z.object({ reason: z.string().optional(), message: z.string().optional() }).optional(),
    terminated: z.object({ reason: z.string().optional(), exitCode: z.number().optional() }).optional(),
});

export const podSchema = z.object({
    metadata: metadataSchema,
    status: z
        .object({
            phase: z.string().optional(),
            conditions: z.array(z.object({ type: z.string(), status: z.string() })).optional(),
            containerStatuses: z
                .array(z.object({ name: z.string(), ready: z.boolean().optional(), started: z.boolean().optional(), state: containerStateSchema.optional() }))
                .optional(),
        })
        .optional(),
});

export const claimSchema = z.object({ metadata: metadataSchema });

export const listSchema = <T extends z.ZodType>(item: T) => z.object({ metadata: z.object({ resourceVersion: z.string().optional() }), items: z.array(item) });

export const accessReviewSchema = z.object({ status: z.object({ allowed: z.boolean().optional() }).optional() });

export const watchEventSchema = z.object({ type: z.string(), object: z.unknown() });

export type PodObject = z.output<typeof podSchema>;

/** Any object, read field by field by its caller. */
export const objectSchema = z.record(z.string(), z.unknown());
