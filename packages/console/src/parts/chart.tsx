// A bar chart drawn as inline SVG: one bar a row, its length the row's share of the largest.
// No charting library: the console loads nothing from off the machine, and a few bars need
// none. The numbers themselves are in a table beside it; the chart is named for readers.

const BAR = 22;
const GAP = 6;
const LABEL = 180;
const WIDTH = 640;
const VALUE = 90;

export function BarChart(props: {
  label: string;
  rows: readonly { readonly key: string; readonly value: number }[];
  format: (value: number) => string;
}) {
  const largest = Math.max(0, ...props.rows.map((row) => row.value));
  const span = WIDTH - LABEL - VALUE;
  const height = props.rows.length * (BAR + GAP) + GAP;
  return (
    <svg
      class="chart"
      role="img"
      aria-label={props.label}
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      preserveAspectRatio="xMinYMin meet"
    >
      <title>{props.label}</title>
      {props.rows.map((row, index) => {
        const y = GAP + index * (BAR + GAP);
        const length = largest === 0 ? 0 : Math.max(1, (row.value / largest) * span);
        return (
          <g key={row.key} data-key={row.key}>
            <text
              x={LABEL - 8}
              y={y + BAR / 2}
              text-anchor="end"
              dominant-baseline="middle"
              class="chart-label"
            >
              {row.key.length > 26 ? `${row.key.slice(0, 25)}…` : row.key}
            </text>
            <rect x={LABEL} y={y} width={length} height={BAR} rx={3} class="chart-bar" />
            <text x={LABEL + length + 6} y={y + BAR / 2} dominant-baseline="middle" class="chart-value">
              {props.format(row.value)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
