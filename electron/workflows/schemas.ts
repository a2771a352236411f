/** The workflow shapes live in the RPC contract (shared/contract/workflows.ts); re-exported for the workflow modules. */
export * from '../../shared/contract/workflows';
