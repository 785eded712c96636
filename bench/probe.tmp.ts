import { PackageLink, CLIENT_APP, DEFINE_AND_QUERY_APP, CHECK_APP } from './lib/bundle';
const link = new PackageLink();
for (const [n, a] of Object.entries({ CLIENT_APP, DEFINE_AND_QUERY_APP })) { const b = await link.bundle(a); console.log(n, b.gzip, b.lazy); }
const c = await link.bundle(CHECK_APP, 'chevrotain'); console.log('CHECK ours', c.gzip);
link.remove();
