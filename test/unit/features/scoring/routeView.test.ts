import { PerspectiveCamera, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { toColumns } from '../../../../src/core/scoring/paper/lite.ts';
import { scorePaperSync } from '../../../../src/core/scoring/paper/score.ts';
import { thinComponents } from '../../../../src/core/scoring/paper/thin.ts';
import { ruleJudge } from '../../../../src/core/scoring/judges/rule.ts';
import { routeSlice } from '../../../../src/features/scoring/ui/routeView.ts';
import { fitPerspective, fitTopZoom } from '../../../../src/viewport/routeFraming.ts';
import { pred, QUESTIONS as Q, scoringHouse } from '../../../support/scoreSupport.ts';

/** Where the points land in normalised device coordinates (−1…1) for a camera at the fitted pose. */
function projected(points: Vector3[], aspect: number) {
  const { position, target } = fitPerspective(points, aspect, 50);
  const cam = new PerspectiveCamera(50, aspect, 0.05, 500);
  cam.position.copy(position);
  cam.lookAt(target);
  cam.updateMatrixWorld();
  return points.map((p) => p.clone().project(cam));
}

describe('framing a route', () => {
  it("a one-hop route 2 m long spans most of the view's width, inside it", () => {
    const ndc = projected([new Vector3(3, 0, 4), new Vector3(5, 0, 4)], 1.25);
    const span = Math.abs(ndc[0]!.x - ndc[1]!.x) / 2;
    expect(span).toBeGreaterThan(0.5);
    for (const p of ndc) {
      expect(Math.abs(p.x)).toBeLessThan(1);
      expect(Math.abs(p.y)).toBeLessThan(1);
    }
  });

  it('a long route over two floors fits inside the view with room at the edges, whichever way it runs', () => {
    const route = [new Vector3(0, 0, 0), new Vector3(0, 0, 6), new Vector3(1, 0, 9), new Vector3(1, 2.8, 9), new Vector3(-4, 2.8, 12)];
    for (const aspect of [0.8, 1.25, 2]) {
      const ndc = projected(route, aspect);
      const xs = ndc.map((p) => p.x),
        ys = ndc.map((p) => p.y);
      expect(Math.max(...xs.map(Math.abs), ...ys.map(Math.abs))).toBeLessThan(0.95);
      expect(Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) / 2).toBeGreaterThan(0.4);
    }
  });

  it("from straight above, the zoom fits the route's floor plan into the view", () => {
    const { center, zoom } = fitTopZoom([new Vector3(0, 0, 0), new Vector3(10, 0, 2)], 1000, 800);
    expect(center.x).toBe(5);
    expect((10 + 0.5) * zoom).toBeLessThanOrEqual(750 + 1e-6);
    expect((10 + 0.5) * zoom).toBeGreaterThan(650);
  });
});

describe("slicing to the route's floors", () => {
  const floors = [0, 2.8, 5.6];
  it('a ground-floor route: cut above the ground floor, nothing hidden below', () => {
    expect(routeSlice([0.02, 0.02], floors)).toEqual({ on: true, height: 1.6, below: null });
  });
  it('a route on the first floor hides the ground floor and the floor above', () => {
    const s = routeSlice([2.82, 2.82], floors)!;
    expect(s.height).toBeCloseTo(4.4);
    expect(s.below).toBeCloseTo(2.3);
  });
  it('a route up the stairs shows both floors it touches', () => {
    const s = routeSlice([0.02, 2.82], floors)!;
    expect(s.height).toBeCloseTo(4.4);
    expect(s.below).toBeNull();
  });
  it('without floors there is nothing to slice by', () => {
    expect(routeSlice([0], [])).toBeNull();
  });
});

describe('figures resting on a handful of records', () => {
  const house = scoringHouse();
  const rule = { judge: ruleJudge() };
  it('an agent\'s RV from one "no" is listed with that record; one with many records is not', () => {
    const predictions = [
      pred('HUMAN', Q.hallToKitchen, 'yes', 'hall -> kitchen'),
      pred('HUMAN', Q.hallToBedroom, 'yes', 'hall -> living -> landing -> bedroom'),
      pred('HUMAN', Q.kitchenToBath, 'no', 'kitchen -> hall -> bath', 'the door is closed'),
      ...Array.from({ length: 6 }, () => pred('WHEELCHAIR', Q.hallToBedroom, 'no', 'hall -> living -> landing -> bedroom', 'stairs')),
    ];
    const report = scorePaperSync(house, predictions, rule);
    const notes = thinComponents(toColumns(report.records), report.perAgent);
    const rv = notes.find((n) => n.agent === 'HUMAN' && n.metric === 'rv')!;
    expect(rv.n).toBe(1);
    expect(rv.records.map((r) => r.id)).toEqual([report.records[2]!.id]);
    expect(notes.find((n) => n.agent === 'HUMAN' && n.metric === 'rta')!.records).toHaveLength(2);
    // Six "no" answers for WHEELCHAIR: its RV is not flagged; its F1 and PV (6 records) are not either.
    expect(notes.filter((n) => n.agent === 'WHEELCHAIR')).toEqual([]);
  });
});
