import { matrixSuite } from '../support/scanMatrix.ts';

// The scan-realism matrix (test/support/scanMatrix.ts), the "cluttered" defect on its own.
matrixSuite('cluttered');
