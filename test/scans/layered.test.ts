import { matrixSuite } from '../support/scanMatrix.ts';

// The scan-realism matrix (test/support/scanMatrix.ts), the "layered" defect on its own.
matrixSuite('layered');
