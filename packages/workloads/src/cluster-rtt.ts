/**
 * cluster-rtt (cluster family): the network costs paper 004 reports for its platform (line 308),
 * measured by running the protocols on the cluster model: a 1-byte ping-pong between nodes 0
 * and 1, a TreadMarks-style lock acquire through a static lock manager, and a barrier of all
 * `processors` nodes through a central barrier manager. Rows
 * {measurement, processors, messages, timeNs, paperNs, ratio}: the paper's measured value beside
 * the lab's (a comparison only: nothing here feeds back into the model).
 *
 * The protocols (TreadMarks, as ../shared/reference/dsm.md section 2 describes; the paper does
 * not describe them itself):
 * - Lock: lock l's manager is node l mod processors (node 0 for lock 0). An acquirer sends a
 *   request carrying its vector timestamp (4 B per processor) to the manager; the manager
 *   reads the lock's last requester from its lock table (in its memory), records the new one,
 *   and either grants at once (it is the last holder and the lock is free: 2 messages) or
 *   forwards the request to the last holder, which grants when the lock is free (3 messages).
 *   A release is local. Grants carry no write notices here (no shared data).
 * - Barrier: every node but the manager (node 0) sends an arrival (its vector timestamp); the
 *   manager takes them in node order, then sends each node a departure (the vector timestamp).
 *   Timed at the manager over back-to-back barriers.
 * Each measurement starts after a harness barrier, so nodes start it together.
 *
 * Paper 004 line 308: "the round-trip latency for a 1-byte message is 126 microseconds. The
 * time to acquire a lock varies from 178 to 272 microseconds. The time for an 32-processor
 * barrier is 1,333 microseconds." The paper does not say which lock case gives which end of
 * the range: the rows set the 2-message case beside 178 us and the 3-message case beside 272 us
 * (our reading), and the paper's barrier is for 32 processors only (paperNs 0 at other sizes).
 */
import { z } from 'zod';
import { WorkloadParamError, type ClusterCore, type Row, type WorkloadDef } from '@manycore/engine';

const Params = z.strictObject({
  processors: z.number().int().min(3).max(256).default(32).describe('nodes in the barrier (nodes 0..processors-1; the lock uses nodes 0, 1 and 2)'),
  rounds: z.number().int().min(1).max(100).default(4).describe('repetitions of the round trip and of the barrier (the mean is reported)'),
});
type P = z.infer<typeof Params>;

/** Paper 004 line 308, in ns. */
export const PAPER_NS = { roundTrip: 126_000, lockLow: 178_000, lockHigh: 272_000, barrier32: 1_333_000 } as const;

// message types (first byte)
const REQUEST = 1;
const FORWARD = 2;
const GRANT = 3;
const ARRIVE = 4;
const DEPART = 5;
const LOCK = 0; // the lock measured; its manager is LOCK mod processors = node 0
const MANAGER = 0;

/** A protocol message: type, lock, requester, then the vector timestamp (4 B per processor). */
function encode(buf: Uint8Array, type: number, lock: number, requester: number): void {
  buf[0] = type;
  buf[1] = lock;
  buf[2] = requester & 0xff;
  buf[3] = requester >>> 8;
}

export const clusterRtt: WorkloadDef<P, ClusterCore> = {
  name: 'cluster-rtt',
  title: 'Cluster network costs: round trip, lock, barrier',
  description: "Paper 004's platform costs from the cluster model: a 1-byte round trip, a TreadMarks lock acquire (manager holds / forwarded) and a barrier of all nodes, beside the paper's measurements.",
  families: ['cluster'],
  params: Params,
  coresParam: { name: 'processors' },
  chart: { x: 'processors', y: 'timeNs', series: 'measurement' },
  participants: (p, chip) => {
    if (p.processors > chip.topo.cores) throw new WorkloadParamError(`processors = ${p.processors}, but the cluster has ${chip.topo.cores} nodes`);
    return Array.from({ length: p.processors }, (_, i) => i);
  },
  *program(core: ClusterCore, p: P) {
    const me = core.id;
    const vtBytes = 4 * p.processors;
    const msg = new Uint8Array(8 + vtBytes); // type, lock, requester, vector timestamp
    const inbox = new Uint8Array(8 + vtBytes);
    const one = new Uint8Array(1);
    // vector timestamp in this node's memory (sent with requests and arrivals)
    const vt = core.privateBase;
    const lockTable = core.privateBase + 4096; // manager: last requester of each lock, + 1 (0: the manager itself)
    const heldFlag = core.privateBase + 8192; // holder: 1 while it holds the lock
    const loadVt = () => {
      for (let i = 0; i < p.processors; i++) {
        const v = core.load32(vt + 4 * i);
        for (let b = 0; b < 4; b++) msg[8 + 4 * i + b] = (v >>> (8 * b)) & 0xff;
      }
    };
    const ns = (t0: number) => Math.round((core.now - t0) / 1000);
    // messages each node sent in each measurement (summed over nodes in summarize)
    let sent = core.counter('messagesSent');
    const phaseDone = (phase: string) => {
      const now = core.counter('messagesSent');
      core.report({ phase, sent: now - sent });
      sent = now;
    };

    // ------------------------------------------------------------ 1-byte round trip (nodes 0, 1)
    yield* core.barrier();
    if (me === 0) {
      const t0 = core.now;
      for (let r = 0; r < p.rounds; r++) {
        one[0] = r;
        core.send(1, one, 1);
        yield* core.receive(1, one);
      }
      core.report({ measurement: 'round trip, 1 byte', processors: 2, timeNs: Math.round(ns(t0) / p.rounds), paperNs: PAPER_NS.roundTrip });
    } else if (me === 1) {
      for (let r = 0; r < p.rounds; r++) {
        yield* core.receive(0, one);
        core.send(0, one, 1);
      }
    }

    phaseDone('round trip, 1 byte');

    // ------------------------------------------------------------ lock acquire
    /** The manager handles one request from `from`. */
    const manage = function* (from: number) {
      yield* core.receive(from, inbox);
      if (inbox[0] !== REQUEST) throw new Error(`node ${me}: expected a lock request from node ${from}, got type ${inbox[0]}`);
      const requester = inbox[2]! | (inbox[3]! << 8);
      const last = core.load32(lockTable + 4 * inbox[1]!); // last requester + 1; 0: the manager
      core.store32(lockTable + 4 * inbox[1]!, requester + 1);
      if (last === 0 && core.load32(heldFlag) === 0) {
        encode(msg, GRANT, inbox[1]!, me);
        core.send(requester, msg, 8);
      } else {
        inbox[0] = FORWARD;
        core.send(last === 0 ? me : last - 1, inbox);
      }
    };
    /** The last holder handles one forwarded request: grants once the lock is free (it is: releases are local). */
    const grantForwarded = function* () {
      yield* core.receive(MANAGER, inbox);
      if (inbox[0] !== FORWARD) throw new Error(`node ${me}: expected a forwarded lock request, got type ${inbox[0]}`);
      const requester = inbox[2]! | (inbox[3]! << 8);
      encode(msg, GRANT, inbox[1]!, me);
      core.send(requester, msg, 8);
    };
    /** Requests LOCK and waits for the grant from `granter` (the manager, or the holder it forwards to). */
    const request = function* (granter: number) {
      loadVt();
      encode(msg, REQUEST, LOCK, me);
      core.send(MANAGER, msg);
      yield* core.receive(granter, inbox);
      if (inbox[0] !== GRANT) throw new Error(`node ${me}: expected a lock grant from node ${granter}, got type ${inbox[0]}`);
      core.store32(heldFlag, 1);
    };
    const release = () => core.store32(heldFlag, 0); // local, as in TreadMarks

    // case 1: node 1 acquires; the manager last held the lock: it grants (2 messages)
    yield* core.barrier();
    if (me === 1) {
      const t0 = core.now;
      yield* request(MANAGER);
      core.report({ measurement: 'lock, manager grants', processors: 3, timeNs: ns(t0), paperNs: PAPER_NS.lockLow });
      release();
    } else if (me === MANAGER) yield* manage(1);
    phaseDone('lock, manager grants');
    // case 2: node 2 acquires; the manager forwards to node 1, the last holder, which grants (3 messages)
    yield* core.barrier();
    if (me === 2) {
      const t0 = core.now;
      yield* request(1);
      core.report({ measurement: 'lock, forwarded to the holder', processors: 3, timeNs: ns(t0), paperNs: PAPER_NS.lockHigh });
      release();
    } else if (me === MANAGER) yield* manage(2);
    else if (me === 1) yield* grantForwarded();

    phaseDone('lock, forwarded to the holder');

    // ------------------------------------------------------------ barrier of all nodes
    yield* core.barrier();
    const t0 = core.now;
    for (let r = 0; r < p.rounds; r++) {
      if (me === MANAGER) {
        for (let n = 1; n < p.processors; n++) {
          yield* core.receive(n, inbox);
          if (inbox[0] !== ARRIVE) throw new Error(`node ${me}: expected a barrier arrival from node ${n}, got type ${inbox[0]}`);
        }
        loadVt();
        encode(msg, DEPART, 0, me);
        for (let n = 1; n < p.processors; n++) core.send(n, msg);
      } else {
        loadVt();
        encode(msg, ARRIVE, 0, me);
        core.send(MANAGER, msg);
        yield* core.receive(MANAGER, inbox);
        if (inbox[0] !== DEPART) throw new Error(`node ${me}: expected a barrier departure, got type ${inbox[0]}`);
      }
    }
    if (me === MANAGER)
      core.report({
        measurement: 'barrier',
        processors: p.processors,
        timeNs: Math.round(ns(t0) / p.rounds),
        paperNs: p.processors === 32 ? PAPER_NS.barrier32 : 0,
      });
    phaseDone('barrier');
  },
  summarize: (rows, p) => {
    const sent = new Map<string, number>();
    for (const r of rows) if (typeof r.phase === 'string') sent.set(r.phase, (sent.get(r.phase) ?? 0) + (r.sent as number));
    const order = ['round trip, 1 byte', 'lock, manager grants', 'lock, forwarded to the holder', 'barrier'];
    const timed = rows.filter((r) => typeof r.measurement === 'string').sort((a, b) => order.indexOf(a.measurement as string) - order.indexOf(b.measurement as string));
    return timed.map((r) => {
      const m = r.measurement as string;
      // messages per operation: the round trip and the barrier ran `rounds` times
      const reps = m === 'round trip, 1 byte' || m === 'barrier' ? p.rounds : 1;
      const paperNs = r.paperNs as number;
      return {
        measurement: m,
        processors: r.processors as number,
        messages: (sent.get(m) ?? 0) / reps,
        timeNs: r.timeNs as number,
        paperNs,
        ratio: paperNs > 0 ? Math.round(((r.timeNs as number) / paperNs) * 1000) / 1000 : 0,
      } as Row;
    });
  },
};
