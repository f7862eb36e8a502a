; i16 multiply-accumulate into i32 with saturation (llvm.tpc.mac i16 with
; SAT, 1): per index point 128 i16 products, the accumulator a pair of i32
; vectors (register e lane i accumulates product 2i + e), read from c and
; written to out as two vectors of 64.
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %x = mul i32 %i, 128
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %a = call <128 x i16> @llvm.tpc.ld.tnsr.v128i16.i1(<5 x i32> %c, i8 0, i32 0, <128 x i16> undef, i1 true, i1 false)
  %b = call <128 x i16> @llvm.tpc.ld.tnsr.v128i16.i1(<5 x i32> %c, i8 1, i32 0, <128 x i16> undef, i1 true, i1 false)
  %x1 = add i32 %x, 64
  %c1 = insertelement <5 x i32> zeroinitializer, i32 %x1, i32 0
  %k0 = call <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32> %c, i8 2, i32 0, <64 x i32> undef, i1 true, i1 false)
  %k1 = call <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32> %c1, i8 2, i32 0, <64 x i32> undef, i1 true, i1 false)
  %acc = shufflevector <64 x i32> %k0, <64 x i32> %k1, <128 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15, i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23, i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 40, i32 41, i32 42, i32 43, i32 44, i32 45, i32 46, i32 47, i32 48, i32 49, i32 50, i32 51, i32 52, i32 53, i32 54, i32 55, i32 56, i32 57, i32 58, i32 59, i32 60, i32 61, i32 62, i32 63, i32 64, i32 65, i32 66, i32 67, i32 68, i32 69, i32 70, i32 71, i32 72, i32 73, i32 74, i32 75, i32 76, i32 77, i32 78, i32 79, i32 80, i32 81, i32 82, i32 83, i32 84, i32 85, i32 86, i32 87, i32 88, i32 89, i32 90, i32 91, i32 92, i32 93, i32 94, i32 95, i32 96, i32 97, i32 98, i32 99, i32 100, i32 101, i32 102, i32 103, i32 104, i32 105, i32 106, i32 107, i32 108, i32 109, i32 110, i32 111, i32 112, i32 113, i32 114, i32 115, i32 116, i32 117, i32 118, i32 119, i32 120, i32 121, i32 122, i32 123, i32 124, i32 125, i32 126, i32 127>
  %r = call <128 x i32> @llvm.tpc.mac.v128i32.v128i16.i1(<128 x i16> %a, <128 x i16> %b, i8 7, i32 1, <128 x i32> %acc, i1 true, i1 false)
  %r0 = shufflevector <128 x i32> %r, <128 x i32> undef, <64 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15, i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23, i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 40, i32 41, i32 42, i32 43, i32 44, i32 45, i32 46, i32 47, i32 48, i32 49, i32 50, i32 51, i32 52, i32 53, i32 54, i32 55, i32 56, i32 57, i32 58, i32 59, i32 60, i32 61, i32 62, i32 63>
  %r1 = shufflevector <128 x i32> %r, <128 x i32> undef, <64 x i32> <i32 64, i32 65, i32 66, i32 67, i32 68, i32 69, i32 70, i32 71, i32 72, i32 73, i32 74, i32 75, i32 76, i32 77, i32 78, i32 79, i32 80, i32 81, i32 82, i32 83, i32 84, i32 85, i32 86, i32 87, i32 88, i32 89, i32 90, i32 91, i32 92, i32 93, i32 94, i32 95, i32 96, i32 97, i32 98, i32 99, i32 100, i32 101, i32 102, i32 103, i32 104, i32 105, i32 106, i32 107, i32 108, i32 109, i32 110, i32 111, i32 112, i32 113, i32 114, i32 115, i32 116, i32 117, i32 118, i32 119, i32 120, i32 121, i32 122, i32 123, i32 124, i32 125, i32 126, i32 127>
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %c, i8 3, <64 x i32> %r0, i32 0, i1 true, i1 false)
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %c1, i8 3, <64 x i32> %r1, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <128 x i16> @llvm.tpc.ld.tnsr.v128i16.i1(<5 x i32>, i8, i32, <128 x i16>, i1, i1)
declare <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32>, i8, i32, <64 x i32>, i1, i1)
declare <128 x i32> @llvm.tpc.mac.v128i32.v128i16.i1(<128 x i16>, <128 x i16>, i8, i32, <128 x i32>, i1, i1)
declare void @llvm.tpc.st.tnsr.v64i32(<5 x i32>, i8, <64 x i32>, i32, i1, i1)
