import { matrixSuite } from '../support/scanMatrix.ts';

// The scan-realism matrix (test/support/scanMatrix.ts), the "dense" defect on its own.
matrixSuite('dense');
