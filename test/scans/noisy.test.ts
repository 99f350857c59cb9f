import { matrixSuite } from '../support/scanMatrix.ts';

// The scan-realism matrix (test/support/scanMatrix.ts), the "noisy" defect on its own.
matrixSuite('noisy');
