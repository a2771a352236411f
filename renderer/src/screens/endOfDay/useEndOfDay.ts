/**
 * The end of day screen's data: the carrier + collection place pairs waiting for a protocol, the
 * protocols made here, the pick-up orders; creating and reprinting a protocol, and following its
 * print job so the worker sees that it came out (or why not).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { JobStateChange } from '../../../../shared/contract/printing';
import type {
  FromAddressGroup,
  PickupOrder,
  ProtocolCandidate,
  ProtocolRecord,
  WorkflowError,
} from '../../../../shared/contract/workflows';
import type { RpcError } from '../../../../shared/rpcEnvelope';
import { rpc } from '../../rpc/transport';
import { useReconnected } from '../../rpc/useReconnected';

export type FollowedJob = JobStateChange & { version: number };

/** The answer to the worker's last action, shown above the lists until the next one. */
export type Notice =
  | { kind: 'created'; protocol: ProtocolRecord; jobId: number | null; place: string }
  | { kind: 'reprinted'; collectionProtocolId: number; jobId: number | null }
  | { kind: 'refused'; code: string; message: string; messages: string[]; details?: unknown };

/** The service's own messages (spec 422 `errors[]`), when the core passed them on. */
function refusal(error: RpcError): Notice {
  const details = error.details as { messages?: unknown } | undefined;
  const messages = Array.isArray(details?.messages)
    ? details.messages.filter((m): m is string => typeof m === 'string')
    : [];
  // The core joins the headline and the per-field messages with " | " for logs; the list shows them apart.
  const headline = messages.length ? error.message.split(' | ')[0]! : error.message;
  // A per-field message that only repeats the headline is said once.
  return {
    kind: 'refused',
    code: error.code,
    message: headline,
    messages: messages.filter((m) => m !== headline),
    // The values the station's sentence names (the protocols another desk made).
    details: error.details,
  };
}

export function useEndOfDay() {
  const [candidates, setCandidates] = useState<ProtocolCandidate[] | null>(null);
  const [fromAddress, setFromAddress] = useState<FromAddressGroup[]>([]);
  const [refreshError, setRefreshError] = useState<WorkflowError | null>(null);
  const [loading, setLoading] = useState(false);
  const [protocols, setProtocols] = useState<ProtocolRecord[]>([]);
  const [pickups, setPickups] = useState<PickupOrder[]>([]);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  /** The protocol jobs' states, each with the version of the change (or reply) it came with. */
  const [jobs, setJobs] = useState<Record<number, FollowedJob>>({});
  const live = useRef(true);

  const loadCandidates = useCallback(async (refresh: boolean) => {
    if (refresh) setLoading(true);
    const r = await rpc.request('endOfDay.candidates', { refresh });
    if (!live.current) return;
    setLoading(false);
    if (r.ok) {
      setCandidates(r.value.candidates);
      setFromAddress(r.value.fromAddress);
      setRefreshError(r.value.refreshError);
    } else {
      setCandidates((c) => c ?? []);
      setRefreshError({ code: r.error.code, message: r.error.message });
    }
  }, []);

  const loadHistory = useCallback(async () => {
    const [p, o] = await Promise.all([rpc.request('endOfDay.protocols', {}), rpc.request('endOfDay.pickupOrders', {})]);
    if (!live.current) return;
    if (p.ok) setProtocols(p.value);
    if (o.ok) setPickups(o.value);
  }, []);

  // Closes and protocols made while the page's socket was down: read from the cache again.
  useReconnected(() => Promise.all([loadCandidates(false), loadHistory()]));
  useEffect(() => {
    live.current = true;
    void loadCandidates(true);
    void loadHistory();
    // A scan elsewhere closed shipments: the cache changed, the list follows without asking the service.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const offChanged = rpc.on('shipments.changed', () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        void loadCandidates(false);
        void loadHistory();
      }, 300);
    });
    // Every job change is kept (a protocol's job can finish before the reply that names it arrives).
    const offJob = rpc.on('printing.jobs', (c) => {
      setJobs((js) => {
        const next = { ...js };
        for (const job of c.jobs) next[job.id] = { ...job, version: c.version };
        // Number keys keep id order: the newest 100 jobs stay.
        return Object.fromEntries(Object.entries(next).slice(-100));
      });
    });
    return () => {
      live.current = false;
      clearTimeout(timer);
      offChanged();
      offJob();
    };
  }, [loadCandidates, loadHistory]);

  /** Reads a job's state once, in case its events came before the reply (or were missed). */
  const follow = (jobId: number | null) => {
    if (jobId === null) return;
    void rpc.request('printing.queue.follow', { ids: [jobId] }).then((r) => {
      if (!r.ok || !r.value.jobs[0] || !live.current) return;
      const job = r.value.jobs[0];
      const version = r.value.version;
      // A change newer than the reply came first: it stands (the reply includes every change up to its version).
      setJobs((js) =>
        (js[jobId]?.version ?? -1) > version
          ? js
          : {
              ...js,
              [jobId]: {
                id: job.id,
                state: job.state,
                reasonCode: job.reasonCode ?? undefined,
                reason: job.reason ?? undefined,
                version,
              },
            },
      );
    });
  };

  const create = async (c: ProtocolCandidate) => {
    setBusy(`${c.carrier}/${c.collectionPlace}`);
    const r = await rpc.request('endOfDay.createProtocol', { carrier: c.carrier, collectionPlace: c.collectionPlace });
    setBusy(null);
    if (r.ok) {
      follow(r.value.jobId);
      setNotice({
        kind: 'created',
        protocol: r.value.protocol,
        jobId: r.value.jobId,
        place: c.collectionPlaceName ?? c.collectionPlace,
      });
    } else setNotice(refusal(r.error));
    await Promise.all([loadCandidates(true), loadHistory()]);
  };

  const reprint = async (collectionProtocolId: number) => {
    setBusy(`reprint/${collectionProtocolId}`);
    const r = await rpc.request('endOfDay.reprintProtocol', { collectionProtocolId });
    setBusy(null);
    if (r.ok) {
      follow(r.value.jobId);
      setNotice({ kind: 'reprinted', collectionProtocolId, jobId: r.value.jobId });
    } else setNotice(refusal(r.error));
    await loadHistory();
  };

  return {
    candidates,
    fromAddress,
    refreshError,
    loading,
    protocols,
    pickups,
    notice,
    busy,
    jobs,
    create,
    reprint,
    refresh: () => loadCandidates(true),
    dismiss: () => setNotice(null),
  };
}
