import { describeSmoke, useScratchApp } from './smoke';

// Where Hono runs, qsfilter runs (reference §15): Bun, Deno and workerd, each from its
// npm package. What they run does not depend on the Node that drives them, so CI runs
// this file once, not on each Node major (.ci/run).
const app = useScratchApp();
describeSmoke('bun', app);
describeSmoke('deno', app);
describeSmoke('workerd', app);
