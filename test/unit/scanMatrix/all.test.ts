import { matrixSuite } from '../../support/scanMatrix.ts';

// The scan-realism matrix (test/support/scanMatrix.ts), variant "all" — every defect at once, the
// strictest cell — in every test run: both houses, every agent × edge, driven and suggested, against
// the true answers. Each defect on its own is in test/scans/ (`npm run test:scans`).
matrixSuite('all');
