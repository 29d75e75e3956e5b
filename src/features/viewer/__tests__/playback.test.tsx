import { Text, View } from '@tarojs/components'
import { act, fireEvent, screen } from '@testing-library/react'
import { useRef, useState } from 'react'
import { usePlayback } from '../hooks/use-playback'
import { cineTick, FRAME_RATES, nextFrameRate } from '../playback'
import { renderComponent } from '../../../../jest/taro-render'

describe('cine (pure)', () => {
  it('advances onto a frame that is here, wrapping round', () => {
    expect(cineTick(3, 5, () => true)).toEqual({ index: 4, load: null })
    expect(cineTick(4, 5, () => true)).toEqual({ index: 0, load: null })
  })

  it('waits on the shown slice and loads the next when it is not here yet', () => {
    expect(cineTick(3, 5, (i) => i !== 4)).toEqual({ index: 3, load: 4 })
  })

  it('帧/秒 steps 5, 10, 15, 25 and round again', () => {
    expect(FRAME_RATES).toEqual([5, 10, 15, 25])
    expect([5, 10, 15, 25].map(nextFrameRate)).toEqual([10, 15, 25, 5])
  })
})

/** The hook in a component, with a stack of `count` slices whose frames are here or not. */
function Harness(props: { count: number; here: Set<number>; loads: number[]; stack: object }) {
  const [index, setIndex] = useState(0)
  // As the viewer's store: the slice shown is known before React renders it.
  const latest = useRef(0)
  const playback = usePlayback({
    stack: props.stack,
    count: props.count,
    current: () => latest.current,
    isHere: (i) => props.here.has(i),
    load: (i) => props.loads.push(i),
    show: (i) => {
      latest.current = i
      setIndex(i)
    },
  })
  return (
    <View>
      <Text data-testid="index">{index}</Text>
      <View onClick={playback.toggle}>{playback.playing ? '暂停' : '播放'}</View>
      <View onClick={playback.nextRate}>{`${playback.fps}帧/秒`}</View>
    </View>
  )
}

const shown = () => Number(screen.getByTestId('index').textContent)

async function tick(ms: number) {
  await act(async () => {
    jest.advanceTimersByTime(ms)
  })
}

describe('usePlayback', () => {
  // Fake timers once mounted: the test utils' mount waits for a real frame.
  afterEach(() => jest.useRealTimers())

  it('plays at 10 frames a second by default, faster after 帧/秒, and pauses', async () => {
    const here = new Set([0, 1, 2, 3])
    await renderComponent(<Harness count={4} here={here} loads={[]} stack={{}} />)
    jest.useFakeTimers()
    await tick(1000)
    expect(shown()).toBe(0)
    fireEvent.click(screen.getByText('播放'))
    await tick(100)
    expect(shown()).toBe(1)
    await tick(200)
    expect(shown()).toBe(3)
    await tick(100)
    expect(shown()).toBe(0)
    fireEvent.click(screen.getByText('10帧/秒'))
    // 15 a second: a frame every 66.7 ms.
    await tick(67 * 3)
    expect(shown()).toBe(3)
    fireEvent.click(screen.getByText('暂停'))
    await tick(1000)
    expect(shown()).toBe(3)
  })

  it('waits for a frame that is not here, asking for it, and goes on once it is', async () => {
    const here = new Set([0, 1])
    const loads: number[] = []
    await renderComponent(<Harness count={3} here={here} loads={loads} stack={{}} />)
    jest.useFakeTimers()
    fireEvent.click(screen.getByText('播放'))
    await tick(300)
    expect(shown()).toBe(1)
    expect(loads).toEqual([2, 2])
    here.add(2)
    await tick(100)
    expect(shown()).toBe(2)
  })

  it('does not play a single image, and stops when the stack changes', async () => {
    const here = new Set([0, 1, 2])
    const single = await renderComponent(<Harness count={1} here={here} loads={[]} stack={{}} />)
    jest.useFakeTimers()
    fireEvent.click(screen.getByText('播放'))
    await tick(500)
    expect(shown()).toBe(0)
    single.unmount()
    jest.useRealTimers()

    let setStack: (stack: object) => void = () => undefined
    function Switching() {
      const [stack, set] = useState<object>({})
      setStack = set
      return <Harness count={3} here={here} loads={[]} stack={stack} />
    }
    await renderComponent(Switching)
    jest.useFakeTimers()
    fireEvent.click(screen.getByText('播放'))
    await tick(100)
    expect(shown()).toBe(1)
    await act(async () => setStack({}))
    expect(screen.getByText('播放')).toBeTruthy()
    await tick(500)
    expect(shown()).toBe(1)
  })
})
