import { describe, expect, it } from 'vitest';
import { NavGraphSchema } from '../../../../src/core/graph.ts';
import { mapFrameOf, mapPixelCentre, mapPixelOf, toMapPixel } from '../../../../src/core/evalinputs/mapFrame.ts';
import { drawMarkers, MARKER_RGB } from '../../../../src/core/evalinputs/mapImage.ts';
import { answerKey, chatContent } from '../../../../src/core/evalinputs/request.ts';
import { modelSettingName } from '../../../../src/core/evalinputs/run.ts';
import { depthMillimetres, depthPreview, graphText, readSpatialParts, sceneMaps } from '../../../../src/core/evalinputs/spatial.ts';
import { depthFramePath, VIDEO_MARK } from '../../../../src/core/evalinputs/types.ts';
import { pixelCentre, project, viewRay } from '../../../../src/core/tour/view.ts';

// A two-storey graph: two nodes downstairs and one upstairs by height, and one high up given the lowest floor by hand.
const graph = NavGraphSchema.parse({
  nodes: [
    { id: 'node_1', name: 'Hall ', position: { x: 1, y: 0.02, z: 2 } },
    { id: 'node_2', name: 'Kitchen', description: 'by the sink', position: { x: 4.256, y: 0.05, z: -1 } },
    { id: 'node_3', name: 'Landing', position: { x: 2, y: 2.82, z: 2 } },
    { id: 'node_4', name: 'Loft', position: { x: 3, y: 5.9, z: 1 }, floor: 0 },
  ],
  edges: [
    { id: 'e1', from: 'node_1', to: 'node_2' },
    { id: 'e2', from: 'node_1', to: 'node_3' },
  ],
});

describe('--with: the spatial parts', () => {
  it('reads a list in any order and case into the canonical order, naming what it does not know', () => {
    expect(readSpatialParts(['graph', ' Depth', 'map', 'graph'])).toEqual({ parts: ['depth', 'map', 'graph'], unknown: [] });
    expect(readSpatialParts(['graph', 'foo', ''])).toEqual({ parts: ['graph'], unknown: ['foo'] });
  });

  it('names the results folder with the variant, parts joined by + in the order depth, map, graph; none: the name of before', () => {
    expect(modelSettingName('gpt-4o', '16', ['graph', 'depth'])).toBe('gpt-4o_16f_with-depth+graph');
    expect(modelSettingName('Qwen/Qwen2.5-VL', '1fps', ['map', 'depth', 'graph'])).toBe('Qwen-Qwen2.5-VL_1fps_with-depth+map+graph');
    expect(modelSettingName('gpt-4o', '16', [])).toBe('gpt-4o_16f');
    expect(modelSettingName('gpt-4o', '16')).toBe('gpt-4o_16f');
  });
});

describe('the topological graph as text', () => {
  it('lists every node with its name, floor and position, and every edge with both names', () => {
    const text = graphText(graph);
    expect(text).toBe(
      [
        '5.Topological Graph',
        "(Spatial information added to the inputs: the scene's navigation graph. Positions are in metres, y is up; floors count from 1, the lowest. An edge is a connection between two nodes, either way.)",
        'Nodes (4):\n\n```\nnode_1 - Hall (floor 1; x 1.00, y 0.02, z 2.00)\nnode_2 - Kitchen (floor 1; x 4.26, y 0.05, z -1.00)\n' +
          'node_3 - Landing (floor 2; x 2.00, y 2.82, z 2.00)\nnode_4 - Loft (floor 1; x 3.00, y 5.90, z 1.00)\n```',
        'Edges (2):\n\n```\nnode_1 (Hall) <-> node_2 (Kitchen)\nnode_1 (Hall) <-> node_3 (Landing)\n```',
      ].join('\n\n'),
    );
  });

  it('counts floors by height on the up axis given', () => {
    const zUp = NavGraphSchema.parse({
      nodes: [
        { id: 'a', name: 'A', position: { x: 0, y: 9, z: 0 } },
        { id: 'b', name: 'B', position: { x: 0, y: 0, z: 3 } },
      ],
      edges: [],
    });
    expect(graphText(zUp, 'z')).toContain('a - A (floor 1; x 0.00, y 9.00, z 0.00)\nb - B (floor 2;');
    expect(sceneMaps('S', zUp, 'z').map((m) => m.markers)).toEqual([[{ label: '1', node: 'a' }], [{ label: '2', node: 'b' }]]);
  });

  it('gives each floor with nodes a map, markers numbered by the nodes’ places in the graph', () => {
    expect(sceneMaps('S', graph)).toEqual([
      {
        file: 'maps/S/floor-1.png',
        floor: 1,
        markers: [
          { label: '1', node: 'node_1' },
          { label: '2', node: 'node_2' },
          { label: '4', node: 'node_4' },
        ],
      },
      { file: 'maps/S/floor-2.png', floor: 2, markers: [{ label: '3', node: 'node_3' }] },
    ]);
    expect(depthFramePath('S', '16', '007.jpg')).toBe('frames/S/16/depth/007.png');
  });
});

describe('the map frame', () => {
  it('puts the bounds and a margin in the picture, x right and z down, and its pixels’ centres map back into them', () => {
    const m = mapFrameOf({ minX: -1, maxX: 9, minZ: 2, maxZ: 7 });
    expect(m).toEqual({ x0: -1.5, z0: 1.5, pxPerM: 20, width: 220, height: 120 });
    expect(toMapPixel(m, -1.5, 1.5)).toEqual({ u: 0, v: 0 });
    expect(mapPixelOf(m, 9, 7)).toEqual([210, 110]);
    for (const [col, row] of [
      [0, 0],
      [17, 93],
      [219, 119],
    ] as const) {
      const c = mapPixelCentre(m, col, row);
      expect(mapPixelOf(m, c.x, c.z)).toEqual([col, row]);
    }
  });

  it('keeps a large scan within the largest side, fewer pixels a metre', () => {
    const m = mapFrameOf({ minX: 0, maxX: 199, minZ: 0, maxZ: 49 });
    expect(m.width).toBe(1024);
    expect(m.pxPerM).toBeCloseTo(1024 / 200, 9);
    expect(m.height).toBe(Math.ceil(50 * m.pxPerM));
  });

  it('draws a marker on its node’s pixel over any label', () => {
    const rgba = new Uint8Array(40 * 20 * 4);
    drawMarkers(rgba, 40, 20, [
      { col: 10, row: 10, label: '12' },
      { col: 18, row: 8, label: '3' },
    ]);
    for (const [x, y] of [
      [10, 10],
      [18, 8],
    ] as const)
      expect([...rgba.subarray((y * 40 + x) * 4, (y * 40 + x) * 4 + 3)]).toEqual([...MARKER_RGB]);
  });
});

describe('depth', () => {
  it('casts through a pixel’s centre on the ray `project` maps back to it; z-depth is the distance times `along`', () => {
    const look = { eye: { x: 1, y: 1.5, z: -2 }, yawRad: 0.7, pitchRad: -0.2 };
    const lens = { fovDeg: 75, aspect: 640 / 480 };
    for (const [col, row] of [
      [0, 0],
      [80, 60],
      [159, 119],
      [13, 101],
    ] as const) {
      const c = pixelCentre(col, row, 160, 120);
      const { dir, along } = viewRay(look, lens, c.x, c.y);
      const p = { x: look.eye.x + 3 * dir.x, y: look.eye.y + 3 * dir.y, z: look.eye.z + 3 * dir.z };
      const back = project(look, lens, p)!;
      expect(back.x).toBeCloseTo(c.x, 9);
      expect(back.y).toBeCloseTo(c.y, 9);
      expect(back.depth).toBeCloseTo(3 * along, 9);
    }
    // The centre pixel of an even picture is half a pixel off the axis; the axis itself is along 1.
    expect(viewRay(look, lens, 0, 0).along).toBeCloseTo(1, 12);
  });

  it('keeps 0 for nothing hit, at least 1 mm for a hit, and shows a model white near, black far', () => {
    expect([...depthMillimetres(new Float32Array([0, 0.0001, 1.2344, 70]))]).toEqual([0, 1, 1234, 65535]);
    expect([...depthPreview(new Uint16Array([0, 1, 5000, 10000, 60000]))]).toEqual([0, 255, 128, 0, 0]);
  });
});

describe('a request with depth frames and maps', () => {
  const input = {
    prompt: `Look.\n${VIDEO_MARK}\nAnswer.`,
    promptVersion: 'v',
    frames: [
      { file: 'f/000.jpg', t: 0 },
      { file: 'f/001.jpg', t: 0.5 },
    ],
    depthFrames: [
      { file: 'f/depth/000.png', t: 0 },
      { file: 'f/depth/001.png', t: 0.5 },
    ],
    maps: [{ file: 'maps/S/floor-1.png', floor: 1, markers: [{ label: '1', node: 'node_1' }] }],
  };

  it('sends them after the frames, each kind after a line saying what it is', () => {
    const parts = chatContent(input, ['a', 'b'], { depth: ['da', 'db'], maps: ['m1'] });
    const shown = parts.map((p) => (p.type === 'text' ? p.text : `[${p.image_url.url}]`));
    expect(shown.slice(0, 5)).toEqual(['Look.', 'Frame 1/2 (00:00)', '[a]', 'Frame 2/2 (00:00)', '[b]']);
    expect(shown[5]).toMatch(/^Depth frames: the same views as the 2 frames above.*white at the camera, black at 10 m or farther/);
    expect(shown.slice(6, 10)).toEqual(['Depth 1/2 (00:00)', '[da]', 'Depth 2/2 (00:00)', '[db]']);
    expect(shown[10]).toMatch(/^Top-down maps, one per floor.*Each node is a red disc with its number beside it\.$/);
    expect(shown.slice(11)).toEqual(['Map of floor 1; markers: 1 = node_1', '[m1]', 'Answer.']);
    expect(() => chatContent(input, ['a', 'b'], { maps: ['m1'] })).toThrow('2 depth frames but 0 images');
  });

  it('keys the answer on their contents too, and an input without them as before', () => {
    const plain = answerKey('m', input, ['x', 'y']);
    expect(answerKey('m', input, ['x', 'y'], [])).toBe(plain);
    expect(answerKey('m', input, ['x', 'y'], ['d1', 'd2', 'm1'])).not.toBe(plain);
    expect(answerKey('m', input, ['x', 'y'], ['d1', 'd2', 'm2'])).not.toBe(answerKey('m', input, ['x', 'y'], ['d1', 'd2', 'm1']));
  });
});
