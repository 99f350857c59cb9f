/**
 * A chart of the Score view as a file: the SVG the view draws, made to stand alone (namespaced,
 * its styles written in, a white background, titled with what it shows), and a PNG rendered from
 * that SVG at twice its size. The numbers stay text in the SVG.
 */
const STYLE = [
  '.chart{font-family:system-ui,sans-serif}',
  '.chart-title{font-size:12px;font-weight:600;fill:#1b1f24}',
  '.chart-label{font-size:11px;fill:#1b1f24}',
  '.bar-text{font-size:10px;fill:#59636e;font-variant-numeric:tabular-nums}',
  '.whisker{stroke:#1b1f24;stroke-width:1.2}',
  '.caption{font-size:10px;fill:#59636e}',
].join('');

const NS = 'http://www.w3.org/2000/svg';

/** The standalone SVG text of a drawn chart, with `caption` (project, models, mode, seed) written under it. */
export function chartSvgText(svg: SVGSVGElement, caption: string): { text: string; width: number; height: number } {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const width = Number(svg.getAttribute('width')) || svg.clientWidth;
  const height = (Number(svg.getAttribute('height')) || svg.clientHeight) + 18;
  copy.setAttribute('xmlns', NS);
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  copy.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const doc = svg.ownerDocument;
  const style = doc.createElementNS(NS, 'style');
  style.textContent = STYLE;
  const background = doc.createElementNS(NS, 'rect');
  for (const [k, v] of Object.entries({ x: '0', y: '0', width: String(width), height: String(height), fill: '#ffffff' })) background.setAttribute(k, v);
  const text = doc.createElementNS(NS, 'text');
  for (const [k, v] of Object.entries({ x: '0', y: String(height - 4), class: 'caption' })) text.setAttribute(k, v);
  text.textContent = caption;
  copy.insertBefore(background, copy.firstChild);
  copy.insertBefore(style, copy.firstChild);
  copy.appendChild(text);
  return { text: new XMLSerializer().serializeToString(copy), width, height };
}

/** The SVG rendered to PNG bytes at `scale` × its size. */
export async function chartPng(svg: { text: string; width: number; height: number }, scale = 2): Promise<Uint8Array> {
  const url = URL.createObjectURL(new Blob([svg.text], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(svg.width * scale);
    canvas.height = Math.round(svg.height * scale);
    const ctx = canvas.getContext('2d')!;
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) throw new Error('the browser could not encode the PNG');
    return new Uint8Array(await blob.arrayBuffer());
  } finally {
    URL.revokeObjectURL(url);
  }
}
