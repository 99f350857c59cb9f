/**
 * How the studio lights and backs a scan: its 3D view (viewport/Workspace.tsx) and the touring
 * video's frames (render.ts) both draw with these, so a video looks like the view it was made in.
 */
export const STUDIO_LOOK = {
  background: '#e9edf2',
  /** Hemisphere light: sky colour, ground colour, intensity. */
  sky: '#ffffff',
  ground: '#8a8f99',
  skyIntensity: 1.1,
  /** Directional light ("sun"). */
  sunPosition: [5, 10, 4] as [number, number, number],
  sunIntensity: 1.2,
} as const;
