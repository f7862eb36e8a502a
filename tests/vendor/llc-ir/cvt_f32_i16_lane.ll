; narrowing f32 -> i16 rounded half to even, saturated (llvm.tpc.convert,
; target int16, lane_sel 1: switches 0x701): f32 lane i to i16 element 2i + 1,
; the even elements keep the income (zero)
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
  %xf = mul i32 %i, 64
  %cf = insertelement <5 x i32> zeroinitializer, i32 %xf, i32 0
  %xs = mul i32 %i, 128
  %cs = insertelement <5 x i32> zeroinitializer, i32 %xs, i32 0
  %a = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %cf, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %r = call <128 x i16> @llvm.tpc.convert.v128i16.v64f32.i1(<64 x float> %a, i8 0, i32 1793, <128 x i16> zeroinitializer, i1 true, i1 false)
  call void @llvm.tpc.st.tnsr.v128i16(<5 x i32> %cs, i8 1, <128 x i16> %r, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32>, i8, i32, <64 x float>, i1, i1)
declare <128 x i16> @llvm.tpc.convert.v128i16.v64f32.i1(<64 x float>, i8, i32, <128 x i16>, i1, i1)
declare void @llvm.tpc.st.tnsr.v128i16(<5 x i32>, i8, <128 x i16>, i32, i1, i1)
