import { matrixSuite } from '../support/scanMatrix.ts';

// The scan-realism matrix (test/support/scanMatrix.ts), the "shuffled" defect on its own.
matrixSuite('shuffled');
