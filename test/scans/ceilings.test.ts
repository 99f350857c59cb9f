import { matrixSuite } from '../support/scanMatrix.ts';

// The scan-realism matrix (test/support/scanMatrix.ts), the "ceilings" defect on its own.
matrixSuite('ceilings');
