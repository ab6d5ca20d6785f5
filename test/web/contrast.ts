/** WCAG's contrast ratio of two `rgb(r, g, b)` colours. */
export function contrast(first: string, second: string): number {
  const luminance = (colour: string): number => {
    const [red, green, blue] = colour.match(/\d+(\.\d+)?/g)!.slice(0, 3).map((part) => {
      const channel = Number(part) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * red! + 0.7152 * green! + 0.0722 * blue!;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}
