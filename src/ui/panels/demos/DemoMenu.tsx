/** "Demos" in the app bar: the guided demos, fetched from the engine when first opened. */
import { useAppStore } from '../../../store/react';
import { selectDemos, selectDemosError } from '../../../store/selectors';
import { MenuButton } from '../../widgets/MenuButton';

export function DemoMenu() {
  const demos = useAppStore(selectDemos);
  const error = useAppStore(selectDemosError);
  const loadDemos = useAppStore((s) => s.loadDemos);
  const openDemo = useAppStore((s) => s.openDemo);
  return (
    <MenuButton
      label="Demos"
      listLabel="Guided demos"
      align="end"
      onOpen={() => void loadDemos()}
      empty={error ?? 'Loading the demos…'}
      items={(demos ?? []).map((demo) => ({
        id: demo.id,
        label: demo.title,
        description: demo.summary,
        onSelect: () => void openDemo(demo.id),
      }))}
    />
  );
}
