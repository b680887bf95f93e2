import { registerView, type ViewProps } from '../registry.js';

function TrafficView(_props: ViewProps) {
  return <div data-testid="traffic-view">Traffic</div>;
}

registerView({ id: 'traffic', title: 'Traffic', enabled: () => true, component: TrafficView });
