import { renderComponent } from '../../../../jest/taro-render'

type Mounted = Awaited<ReturnType<typeof renderComponent>>

let mounted: Mounted[] = []

// jest/taro-render leaves what it mounted in the document; each test here starts from an empty body.
afterEach(() => {
  // `unmout` is the test utils' own spelling.
  for (const utils of mounted) {
    try {
      utils.unmout()
    } catch {
      // Already unmounted by the test itself.
    }
  }
  mounted = []
})

/** `renderComponent` (through @tarojs/test-utils-react), unmounted after the test. */
export async function mount<P extends Record<string, unknown>>(
  Component: Parameters<typeof renderComponent<P>>[0],
  props?: P,
): Promise<Mounted> {
  const utils = await renderComponent(Component, props)
  mounted.push(utils)
  return utils
}
